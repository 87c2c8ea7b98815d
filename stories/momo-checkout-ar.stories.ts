/**
 * `<momo-checkout>` in Arabic, right to left, light theme, 320 px: the steps issue 23 added (approve on your phone, a remembered
 * number) and the main states, with the ar language file included as a page would.
 */
import type { Meta } from '@storybook/web-components-vite';
import { checkoutArgTypes, checkoutStory } from './story-kit.js';
import type { CheckoutArgs } from './story-kit.js';

const meta: Meta<CheckoutArgs> = {
  title: 'Checkout/Arabic (العربية) · RTL · light · 320 px',
  component: 'momo-checkout',
  tags: [],
  args: { lang: 'ar', theme: 'light', width: '320px' },
  argTypes: checkoutArgTypes,
};
export default meta;

export const EnteringNumber = { ...checkoutStory('EnteringNumber'), name: 'إدخال الرقم' };
export const InvalidNumber = { ...checkoutStory('InvalidNumber'), name: 'رقم غير صالح' };
export const RememberedNumber = { ...checkoutStory('RememberedNumber'), name: 'رقم محفوظ على هذا الجهاز' };
export const WalletChoice = { ...checkoutStory('WalletChoice'), name: 'اختيار المحفظة' };
export const OperatorWithInstructions = { ...checkoutStory('OperatorWithInstructions'), name: 'تعليمات شركة الاتصالات مع رمز' };
export const OperatorWithEmptyInstructions = { ...checkoutStory('OperatorWithEmptyInstructions'), name: 'بدون تعليمات (النص الافتراضي)' };
export const OtpStep = { ...checkoutStory('OtpStep'), name: 'رمز الدفع مطلوب' };
export const AwaitingPush = { ...checkoutStory('AwaitingPush'), name: 'في انتظار التأكيد' };
export const ApproveOnPhone = { ...checkoutStory('ApproveOnPhone'), name: 'التأكيد على الهاتف (الحاسوب: رمز QR ورابط)' };
export const Redirecting = { ...checkoutStory('Redirecting'), name: 'الانتقال إلى صفحة التأكيد' };
export const Succeeded = { ...checkoutStory('Succeeded'), name: 'تم استلام الدفعة' };
export const Failed = { ...checkoutStory('Failed'), name: 'فشل (يمكن المحاولة مجددًا)' };
export const Expired = { ...checkoutStory('Expired'), name: 'انتهت المهلة' };
export const CompanionError = { ...checkoutStory('CompanionError'), name: 'خطأ (انتهت الجلسة)' };
