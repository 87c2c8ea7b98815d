import { setCustomElementsManifest } from '@storybook/web-components-vite';
import type { Preview } from '@storybook/web-components-vite';
// Docs pages (props, events, parts, custom properties) come from the committed manifest.
import manifest from '../custom-elements.json' with { type: 'json' };

setCustomElementsManifest(manifest);

const preview: Preview = {
  parameters: {
    controls: { expanded: true },
    layout: 'fullscreen',
  },
};
export default preview;
