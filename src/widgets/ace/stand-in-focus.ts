/**
 * The id of the stand-in textarea (CodeEditorLoader) that has focus, so ace takes the focus over
 * when it arrives. Its own module: the loader lazy-loads the editor, which must not import it back.
 */
export const standInFocus: { id: string | null } = { id: null };
