/**
 * `<momo-checkout>` in Portuguese (Mozambique, Angola), light theme, 320 px: the steps issue 23 added (approve on your phone, a remembered
 * number) and the main states, with the pt language file included as a page would.
 */
import type { Meta } from '@storybook/web-components-vite';
import { checkoutArgTypes, checkoutStory } from './story-kit.js';
import type { CheckoutArgs } from './story-kit.js';

const meta: Meta<CheckoutArgs> = {
  title: 'Checkout/Português · light · 320 px',
  component: 'momo-checkout',
  tags: [],
  args: { lang: 'pt', theme: 'light', width: '320px' },
  argTypes: checkoutArgTypes,
};
export default meta;

export const EnteringNumber = { ...checkoutStory('EnteringNumber'), name: 'Introduzir o número' };
export const RememberedNumber = { ...checkoutStory('RememberedNumber'), name: 'Número lembrado neste aparelho' };
export const OperatorWithEmptyInstructions = { ...checkoutStory('OperatorWithEmptyInstructions'), name: 'Operadora sem instruções (texto por defeito)' };
export const OtpStep = { ...checkoutStory('OtpStep'), name: 'Código de pagamento pedido' };
export const AwaitingPush = { ...checkoutStory('AwaitingPush'), name: 'À espera de confirmação' };
export const ApproveOnPhone = { ...checkoutStory('ApproveOnPhone'), name: 'Confirmar no telemóvel (computador: código QR e ligação)' };
export const Redirecting = { ...checkoutStory('Redirecting'), name: 'A caminho da página de confirmação' };
export const Succeeded = { ...checkoutStory('Succeeded'), name: 'Pagamento recebido' };
export const Failed = { ...checkoutStory('Failed'), name: 'Falhou (pode tentar de novo)' };
export const CompanionError = { ...checkoutStory('CompanionError'), name: 'Erro (sessão expirada)' };
