/**
 * Completion rate per operator over the last hour and the last day, beside its usual rate, as a
 * table (the numbers are read, not guessed from bar lengths) with a small inline SVG bar in each
 * cell. An operator whose last hour fell well below its usual rate is said in words, not by colour alone.
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { ConsoleOperatorRate, ConsoleRate } from '../contract/console.js';
import type { ConsoleText } from './console-text-en.js';

function rateCell(rate: ConsoleRate, text: ConsoleText): TemplateResult {
  const share = rate.rate ?? 0;
  return html`<td>
    <svg class="rate" viewBox="0 0 100 10" aria-hidden="true" preserveAspectRatio="none">
      <rect class="rate-track" x="0" y="0" width="100" height="10"></rect>
      ${rate.rate === null ? nothing : svg`<rect class="completed" x="0" y="0" width=${Math.round(share * 100)} height="10"></rect>`}
    </svg>
    ${text.overview.rate(rate.rate, rate.finished)}
  </td>`;
}

/** `labelledBy`: the id of the heading that names the table. */
export function operatorRatesTable(operators: readonly ConsoleOperatorRate[], text: ConsoleText, labelledBy: string): TemplateResult {
  const words = text.overview;
  if (operators.length === 0) return html`<p>${words.noOperator}</p>`;
  return html`
    <div class="scroll">
      <table class="operators" aria-labelledby=${labelledBy}>
        <thead>
          <tr>
            <th scope="col">${text.list.operator}</th>
            <th scope="col">${words.lastHour}</th>
            <th scope="col">${words.lastDay}</th>
            <th scope="col">${words.usual}</th>
          </tr>
        </thead>
        <tbody>
          ${operators.map(
            (operator) => html`<tr class=${operator.belowUsual ? 'below' : ''}>
              <th scope="row">${operator.operator}${operator.belowUsual ? html`<br /><span class="bad">⚠ ${words.belowUsual}</span>` : nothing}</th>
              ${rateCell(operator.lastHour, text)} ${rateCell(operator.lastDay, text)} ${rateCell(operator.usual, text)}
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  `;
}
