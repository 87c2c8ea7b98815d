import { controlStyles } from './controls.js';
import { numberStepStyles } from './number-step.js';
import { operatorRowStyles } from './operator-row.js';
import { otpStepStyles } from './otp-step.js';
import { outcomeStepStyles } from './outcome-steps.js';
import { themeStyles } from './theme.js';
import { waitingStepStyles } from './waiting-steps.js';

/**
 * The default theme of `<momo-checkout>`, one part per step after the shared ones. Only adopted
 * stylesheets (Lit `static styles`): they work under a strict CSP with no 'unsafe-inline' styles.
 * The order matters where two rules of the same weight meet the same element (the operator row
 * comes after the theme's step grid: a waiting step is `.step.operator`); otherwise the parts
 * select different elements, so the split kept the cascade of the single sheet it replaced.
 */
export const styles = [themeStyles, controlStyles, operatorRowStyles, numberStepStyles, otpStepStyles, waitingStepStyles, outcomeStepStyles];
