/**
 * `npm run manifest`: writes `custom-elements.json` (package.json `customElements`) from the JSDoc
 * of the element (`@attr`, `@fires`, `@csspart`, `@cssprop`) and its Lit `static properties`. Editors,
 * Storybook's docs pages and framework tooling read it. `test/ship/custom-elements-manifest.test.ts`
 * regenerates it into a temporary folder and fails when the committed file is stale.
 */
export default {
  // The element, its events, and define.ts, where the tag name is registered.
  globs: ['src/element/momo-checkout.ts', 'src/element/events.ts', 'src/define.ts', 'src/index.ts'],
  exclude: ['src/element/phone-metadata.generated.ts'],
  outdir: '.',
  litelement: true,
  dev: false,
  packagejson: false,
  plugins: [hidePrivateMembers()],
};

/**
 * Private and protected members are implementation: listing them in the manifest would show them
 * as controls in Storybook's docs and as API in editors.
 */
function hidePrivateMembers() {
  return {
    name: 'momo-hide-private-members',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules ?? []) {
        for (const declaration of module.declarations ?? []) {
          if (!declaration.members) continue;
          declaration.members = declaration.members.filter((member) => member.privacy !== 'private' && member.privacy !== 'protected');
        }
      }
    },
  };
}
