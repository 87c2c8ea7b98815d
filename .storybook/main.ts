/**
 * Storybook for design review (issue 5, "Storybook"). Stories run with no server: a scripted
 * companion client drives the element. `npm run build-storybook` builds the static site offline.
 */
import type { StorybookConfig } from '@storybook/web-components-vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  // Operator logos served from the stories' own origin (the element accepts https or same origin).
  staticDirs: [{ from: '../stories/operator-logos', to: '/operator-logos' }],
  framework: { name: '@storybook/web-components-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  async viteFinal(viteConfig) {
    const { mergeConfig } = await import('vite');
    return mergeConfig(viteConfig, {
      // Lit's decorators need these (TOOLCHAIN.md, "Decorators"); Vite's transform reads tsconfig.json
      // but say it here so the stories never depend on which tsconfig a tool picks.
      oxc: { decorator: { legacy: true } },
    });
  },
};
export default config;
