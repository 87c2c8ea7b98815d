/**
 * `<momo-checkout>`, one story per checkout state, in English, light theme, desktop width.
 * The language, theme and width are controls; `momo-checkout-fr-dark-320.stories.ts` holds the same
 * states in French, dark, at 320 px, so both ends are tested. Two stories only here show controls
 * at work: a merchant's brand (custom properties) and the `checkout-view` attribute.
 */
import type { Meta } from '@storybook/web-components-vite';
import { checkout } from './scenarios.js';
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

export const EnteringNumber = { ...checkoutStory('EnteringNumber'), name: 'Entering a number' };
/**
 * The documented custom properties are controls too: a merchant's own brand. A light theme's:
 * no colour reads at 4.5:1 on both a white and a near-black card, so the dark theme is not shot.
 */
export const MerchantBrand = {
  ...checkoutStory('EnteringNumber'),
  name: 'A merchant’s brand (custom properties)',
  tags: ['light-theme-only'],
  args: { '--momo-color-primary': '#6d28d9', '--momo-color-on-primary': '#ffffff', '--momo-radius': '6px' },
};
/** The `checkout-view` attribute wins over the companion's answer: another amount and one country. */
export const ServerRenderedView = {
  ...checkoutStory('EnteringNumber'),
  name: 'Checkout view rendered by the shop’s server (checkout-view)',
  args: { 'checkout-view': { ...checkout, amount: '12500', countries: checkout.countries.filter((country) => country.code === 'CI') } },
};
export const InvalidNumber = { ...checkoutStory('InvalidNumber'), name: 'Invalid number' };
export const LookingUpOperator = { ...checkoutStory('LookingUpOperator'), name: 'Looking up the operator' };
export const UnknownOperator = { ...checkoutStory('UnknownOperator'), name: 'No operator for this number' };
export const OperatorWithInstructions = { ...checkoutStory('OperatorWithInstructions'), name: 'Operator with OTP instructions' };
export const OperatorWithEmptyInstructions = { ...checkoutStory('OperatorWithEmptyInstructions'), name: 'Operator with empty instructions (fallback)' };
export const CopiedDialCode = { ...checkoutStory('CopiedDialCode'), name: 'Dial code copied (focused Copy button)' };
export const WalletChoice = { ...checkoutStory('WalletChoice'), name: 'Overlay-wallet choice' };
export const Submitting = { ...checkoutStory('Submitting'), name: 'Submitting the payment' };
export const OtpStep = { ...checkoutStory('OtpStep'), name: 'OTP step (asked by the pay-in)' };
export const WrongCode = { ...checkoutStory('WrongCode'), name: 'A wrong payment code' };
export const AwaitingPush = { ...checkoutStory('AwaitingPush'), name: 'Waiting for the push, with the countdown' };
export const WrongNumberHelp = { ...checkoutStory('WrongNumberHelp'), name: 'Waiting: “wrong number?” opened' };
export const NoPromptHelp = { ...checkoutStory('NoPromptHelp'), name: 'Waiting: “didn’t get the prompt?” help' };
export const Redirecting = { ...checkoutStory('Redirecting'), name: 'Redirecting to the authorisation page' };
export const ApproveOnPhone = { ...checkoutStory('ApproveOnPhone'), name: 'Approve on your phone (desktop: QR code and link)' };
export const RememberedNumber = { ...checkoutStory('RememberedNumber'), name: 'Number remembered on this device' };
export const ConfirmingAfterReturn = { ...checkoutStory('ConfirmingAfterReturn'), name: 'Confirming after the return' };
export const Succeeded = { ...checkoutStory('Succeeded'), name: 'Succeeded' };
export const Failed = { ...checkoutStory('Failed'), name: 'Failed (can retry)' };
export const FailedNoRetry = { ...checkoutStory('FailedNoRetry'), name: 'Failed (no retry left)' };
export const Expired = { ...checkoutStory('Expired'), name: 'Expired: no outcome in time' };
export const CompanionError = { ...checkoutStory('CompanionError'), name: 'Companion error (token expired)' };
export const NetworkDown = { ...checkoutStory('NetworkDown'), name: 'The network down' };
export const NotPayable = { ...checkoutStory('NotPayable'), name: 'Order not payable (no country serves its currency)' };
