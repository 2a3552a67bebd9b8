/** The record editor's texts. */
export const MESSAGES = {
  created: 'Successfully created record.',
  updated: 'Successfully updated record.',
  deleted: 'Successfully deleted record.',
  confirmDelete: 'Do you really want to delete the selected record?',
  confirmClose: 'You have unsaved changes. Do you really want to close the panel?',
  confirmDiscard: 'You have unsaved changes. Do you really want to discard them?',
  confirmVerified: 'Do you really want to manually change the verified account state?',
  loadFailed: (id: string) => `Unable to load record with id "${id}"`,
  changedElsewhere: 'This record was changed elsewhere after you opened it.',
  deletedElsewhere: 'This record was deleted elsewhere.',
  reloadedElsewhere: 'This record was changed elsewhere; the form shows the new version.',
  confirmOverwrite: 'This record was changed elsewhere. Do you really want to overwrite those changes?',
  verificationSent: (email: string) => `Successfully sent verification email to ${email}.`,
  resetSent: (email: string) => `Successfully sent password reset email to ${email}.`,
};
