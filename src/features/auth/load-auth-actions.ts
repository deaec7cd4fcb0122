/**
 * Firebase Auth (107 kB of script, a long task to evaluate on a slow phone) comes with the forms' calls, which load
 * when the visitor starts to use a form or sends it, not when the log-in modal opens: on /signup and /login the
 * form draws without evaluating Firebase (ADR 0039). The e-mail field's autofocus is no use of the form, a key, a
 * tap or an input (autofill too) is. This module must not import Firebase.
 */
export const loadAuthActions = () => import('./auth-actions');

const warm = () => void loadAuthActions();

/** A form's handlers that start loading the calls at the visitor's first key, tap or input. */
export const loadAuthActionsOnUse = { onKeyDown: warm, onPointerDown: warm, onInput: warm };
