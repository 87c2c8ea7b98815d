// `@momo-checkout/element/define`: registers <momo-checkout>. Its types come with the tag typed in
// the DOM (HTMLElementTagNameMap, the momo-* events in HTMLElementEventMap) and in React's JSX
// (React 18 and 19, without the wrapper or @lit/react). An app without React skips the JSX part:
// the augmentation of a module it does not have is ignored (with skipLibCheck, as every framework's
// template sets it).
export * from '../dist/define.js';
import '../dist/react/jsx.js';
