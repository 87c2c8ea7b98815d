import { css } from 'lit';

/**
 * What an engine older than the support matrix (docs/embedding.md, "Browser support") gets in
 * place of the default theme's container query: the window's width stands in for the element's,
 * so a phone still gets the number on its own row instead of squeezed beside the country. Engines
 * of the matrix all have container queries and never apply it. (Without `:has()`, the chosen
 * operator's card only loses its highlight: its radio button still shows the choice.)
 */
export const olderEngineStyles = css`
  @supports not (container-type: inline-size) {
    @media (max-width: 26rem) {
      .phone-row {
        grid-template-columns: minmax(0, 1fr);
      }
    }
  }
`;
