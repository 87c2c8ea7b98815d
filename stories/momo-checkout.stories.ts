/**
 * `<momo-checkout>`, one story per checkout state, in English, light theme, desktop width.
 * The language, theme and width are controls; `momo-checkout-fr-dark-320.stories.ts` holds the same
 * states in French, dark, at 320 px, so both ends are tested.
 */
import type { Meta } from '@storybook/web-components-vite';
import { checkoutArgTypes, checkoutStory } from './story-kit.js';
import type { CheckoutArgs } from './story-kit.js';

const meta: Meta<CheckoutArgs> = {
  title: 'Checkout/English · light · desktop',
  component: 'momo-checkout',
  tags: ['autodocs'],
  args: { lang: 'en', theme: 'light', width: 'desktop' },
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
