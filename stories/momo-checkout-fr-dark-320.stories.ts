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

export const EnteringNumber = { ...checkoutStory('EnteringNumber'), name: 'Saisie du numéro' };
export const InvalidNumber = { ...checkoutStory('InvalidNumber'), name: 'Numéro invalide' };
export const LookingUpOperator = { ...checkoutStory('LookingUpOperator'), name: 'Recherche de l’opérateur' };
export const UnknownOperator = { ...checkoutStory('UnknownOperator'), name: 'Aucun opérateur pour ce numéro' };
export const OperatorWithInstructions = { ...checkoutStory('OperatorWithInstructions'), name: 'Opérateur avec instructions de code' };
export const OperatorWithEmptyInstructions = { ...checkoutStory('OperatorWithEmptyInstructions'), name: 'Opérateur sans instructions (texte par défaut)' };
export const CopiedDialCode = { ...checkoutStory('CopiedDialCode'), name: 'Code à composer copié (bouton Copier au focus)' };
export const WalletChoice = { ...checkoutStory('WalletChoice'), name: 'Choix du portefeuille' };
export const Submitting = { ...checkoutStory('Submitting'), name: 'Envoi du paiement' };
export const OtpStep = { ...checkoutStory('OtpStep'), name: 'Code de paiement demandé' };
export const WrongCode = { ...checkoutStory('WrongCode'), name: 'Code de paiement refusé' };
export const AwaitingPush = { ...checkoutStory('AwaitingPush'), name: 'Attente de validation, avec le compte à rebours' };
export const WrongNumberHelp = { ...checkoutStory('WrongNumberHelp'), name: 'Attente : « mauvais numéro ? » ouvert' };
export const NoPromptHelp = { ...checkoutStory('NoPromptHelp'), name: 'Attente : aide « pas reçu la demande ? »' };
export const Redirecting = { ...checkoutStory('Redirecting'), name: 'Redirection vers la page de validation' };
export const ApproveOnPhone = { ...checkoutStory('ApproveOnPhone'), name: 'Valider sur le téléphone (ordinateur : code QR et lien)' };
export const RememberedNumber = { ...checkoutStory('RememberedNumber'), name: 'Numéro mémorisé sur cet appareil' };
export const ConfirmingAfterReturn = { ...checkoutStory('ConfirmingAfterReturn'), name: 'Confirmation après le retour' };
export const Succeeded = { ...checkoutStory('Succeeded'), name: 'Paiement reçu' };
export const Failed = { ...checkoutStory('Failed'), name: 'Échec (nouvel essai possible)' };
export const FailedNoRetry = { ...checkoutStory('FailedNoRetry'), name: 'Échec (plus d’essai possible)' };
export const Expired = { ...checkoutStory('Expired'), name: 'Expiré : pas de réponse à temps' };
export const CompanionError = { ...checkoutStory('CompanionError'), name: 'Erreur du serveur compagnon (jeton expiré)' };
export const NetworkDown = { ...checkoutStory('NetworkDown'), name: 'Réseau coupé' };
export const NotPayable = { ...checkoutStory('NotPayable'), name: 'Commande non payable (aucun pays pour sa devise)' };
