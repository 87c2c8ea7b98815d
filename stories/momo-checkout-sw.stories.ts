/**
 * `<momo-checkout>` in Swahili (Kenya, Tanzania), dark theme, desktop width: the steps issue 23 added (approve on your phone, a remembered
 * number) and the main states, with the sw language file included as a page would.
 */
import type { Meta } from '@storybook/web-components-vite';
import { checkoutArgTypes, checkoutStory } from './story-kit.js';
import type { CheckoutArgs } from './story-kit.js';

const meta: Meta<CheckoutArgs> = {
  title: 'Checkout/Kiswahili · dark · desktop',
  component: 'momo-checkout',
  tags: [],
  args: { lang: 'sw', theme: 'dark', width: 'desktop' },
  argTypes: checkoutArgTypes,
};
export default meta;

export const EnteringNumber = { ...checkoutStory('EnteringNumber'), name: 'Kuweka namba' };
export const RememberedNumber = { ...checkoutStory('RememberedNumber'), name: 'Namba imekumbukwa kwenye kifaa hiki' };
export const OperatorWithEmptyInstructions = { ...checkoutStory('OperatorWithEmptyInstructions'), name: 'Mtandao bila maelekezo (maandishi ya kawaida)' };
export const OtpStep = { ...checkoutStory('OtpStep'), name: 'Msimbo wa malipo unahitajika' };
export const AwaitingPush = { ...checkoutStory('AwaitingPush'), name: 'Kusubiri uthibitisho' };
export const ApproveOnPhone = { ...checkoutStory('ApproveOnPhone'), name: 'Thibitisha kwenye simu (kompyuta: msimbo wa QR na kiungo)' };
export const Redirecting = { ...checkoutStory('Redirecting'), name: 'Kwenda kwenye ukurasa wa kuthibitisha' };
export const Succeeded = { ...checkoutStory('Succeeded'), name: 'Malipo yamepokelewa' };
export const Failed = { ...checkoutStory('Failed'), name: 'Yameshindikana (jaribu tena)' };
export const CompanionError = { ...checkoutStory('CompanionError'), name: 'Hitilafu (muda umeisha)' };
