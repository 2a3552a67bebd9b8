import { t } from '../../../ui/i18n';

/** The record editor's texts, read when shown (the language may have changed since). */
export const MESSAGES = {
  get created() { return t('recordEditor.created'); },
  get updated() { return t('recordEditor.updated'); },
  get deleted() { return t('recordEditor.deleted'); },
  get confirmDelete() { return t('recordEditor.confirmDelete'); },
  get confirmClose() { return t('recordEditor.confirmClose'); },
  get confirmDiscard() { return t('recordEditor.confirmDiscard'); },
  get confirmVerified() { return t('recordEditor.confirmVerified'); },
  loadFailed: (id: string) => t('recordList.loadFailed', { id }),
  get changedElsewhere() { return t('recordEditor.changedElsewhere'); },
  get deletedElsewhere() { return t('recordEditor.deletedElsewhere'); },
  get reloadedElsewhere() { return t('recordEditor.reloadedElsewhere'); },
  get confirmOverwrite() { return t('recordEditor.confirmOverwrite'); },
  verificationSent: (email: string) => t('recordEditor.verificationSent', { email }),
  resetSent: (email: string) => t('recordEditor.resetSent', { email }),
};
