// momo-checkout: Vue vite.config.ts
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  // <momo-checkout> is a custom element, not a Vue component: Vue renders it as it is.
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'momo-checkout' } } })],
});
