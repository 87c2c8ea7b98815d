/**
 * Payments per hour over the last 24 hours, stacked by outcome, as inline SVG (no chart library: 24
 * bars of three parts do not earn one's bytes). The picture is `role="img"` with a sentence that
 * says what it shows; each bar has a `<title>` with its numbers for a pointer.
 */
import { html, svg, type TemplateResult } from 'lit';
import type { ConsoleHour } from '../contract/console.js';
import type { ConsoleText } from './console-text-en.js';
import { hourText } from './format.js';

const width = 480;
const height = 180;
/** Room under the bars: the axis line only (the hour labels are below the picture). */
const axis = 4;
const outcomes = ['completed', 'failed', 'open'] as const;

export function hourlyChart(hours: readonly ConsoleHour[], text: ConsoleText): TemplateResult {
  const totals = (key: (typeof outcomes)[number]) => hours.reduce((sum, hour) => sum + hour[key], 0);
  const summary = text.overview.perHourSummary(totals('completed'), totals('failed'), totals('open'));
  const highest = Math.max(1, ...hours.map((hour) => hour.completed + hour.failed + hour.open));
  const slot = width / Math.max(1, hours.length);
  const scale = (height - axis) / highest;
  return html`
    <figure class="chart">
      <figcaption id="per-hour">${text.overview.perHour}</figcaption>
      <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="per-hour per-hour-summary">
        ${hours.map((hour, index) => {
          let top = height - axis;
          const parts = outcomes.map((outcome) => {
            const size = hour[outcome] * scale;
            top -= size;
            return size > 0 ? svg`<rect class=${outcome} x=${index * slot + 2} y=${top} width=${slot - 4} height=${size}></rect>` : svg``;
          });
          const label = `${hourText(hour.start, text.locale)}: ${hour.completed} ${text.overview.legend.completed}, ${hour.failed} ${text.overview.legend.failed}, ${hour.open} ${text.overview.legend.open}`;
          return svg`<g><title>${label}</title>${parts}</g>`;
        })}
        <line x1="0" x2=${width} y1=${height - axis} y2=${height - axis} class="axis"></line>
      </svg>
      <!-- The hour labels are HTML, not SVG text: SVG text scales with the picture, larger than the
           page's text on a wide screen and too small to read at 320 px (issue 32). Every sixth hour,
           each label over its six bars (a four-column grid for the usual 24). -->
      <div class="ticks" aria-hidden="true">
        ${hours.filter((_, index) => index % 6 === 0).map((hour) => html`<span class="tick">${hourText(hour.start, text.locale)}</span>`)}
      </div>
      <p id="per-hour-summary">${summary}</p>
      <ul class="legend">
        ${outcomes.map((outcome) => html`<li><span class="swatch ${outcome}" aria-hidden="true"></span>${text.overview.legend[outcome]}</li>`)}
      </ul>
    </figure>
  `;
}
