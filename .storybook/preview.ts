import { setCustomElementsManifest } from '@storybook/web-components-vite';
import type { Preview } from '@storybook/web-components-vite';
import { withActions } from 'storybook/actions/decorator';
// Docs pages (props, events, parts, custom properties) come from the committed manifest.
import manifest from '../custom-elements.json' with { type: 'json' };
import { checkoutEvents, manifestArgTypes } from '../stories/story-kit.js';

setCustomElementsManifest(manifest);

const preview: Preview = {
  decorators: [withActions],
  argTypes: manifestArgTypes,
  parameters: {
    controls: { expanded: true },
    // Every momo-* event the element fires (bubbling, composed) appears in the Actions panel.
    actions: { handles: checkoutEvents },
    layout: 'fullscreen',
    // The play function already runs axe and fails the story; the panel shows the same for review.
    a11y: { test: 'off' },
    // Play functions in the Docs page too, so each preview shows its state, not the empty form.
    docs: { story: { autoplay: true } },
    viewport: {
      options: {
        phone320: { name: 'Phone, 320 px', styles: { width: '320px', height: '640px' }, type: 'mobile' },
        phone375: { name: 'Phone, 375 px', styles: { width: '375px', height: '740px' }, type: 'mobile' },
        desktop: { name: 'Desktop, 1280 px', styles: { width: '1280px', height: '800px' }, type: 'desktop' },
      },
    },
  },
};
export default preview;
