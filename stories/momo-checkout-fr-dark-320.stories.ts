/**
 * `<momo-checkout>`, one story per checkout state, in French, dark theme, 320 px wide (the other end of the controls).
 * Same states as momo-checkout.stories.ts; together they test both languages, both themes and
 * both widths.
 */
import type { Meta } from '@storybook/web-components-vite';
import { checkoutArgTypes, checkoutStory } from './story-kit.js';
import type { CheckoutArgs } from './story-kit.js';

const meta: Meta<CheckoutArgs> = {
  title: 'Checkout/Français · dark · 320 px',
  component: 'momo-checkout',
  tags: [],
  args: { lang: 'fr', theme: 'dark', width: '320px' },
  argTypes: checkoutArgTypes,
};
export default meta;

export const EnteringNumber = checkoutStory('EnteringNumber');
export const InvalidNumber = checkoutStory('InvalidNumber');
export const OperatorWithInstructions = checkoutStory('OperatorWithInstructions');
export const OperatorWithEmptyInstructions = checkoutStory('OperatorWithEmptyInstructions');
export const WalletChoice = checkoutStory('WalletChoice');
export const OtpStep = checkoutStory('OtpStep');
export const AwaitingPush = checkoutStory('AwaitingPush');
export const Redirecting = checkoutStory('Redirecting');
export const ConfirmingAfterReturn = checkoutStory('ConfirmingAfterReturn');
export const Succeeded = checkoutStory('Succeeded');
export const Failed = checkoutStory('Failed');
export const Expired = checkoutStory('Expired');
export const CompanionError = checkoutStory('CompanionError');
export const NetworkDown = checkoutStory('NetworkDown');
export const NotPayable = checkoutStory('NotPayable');
