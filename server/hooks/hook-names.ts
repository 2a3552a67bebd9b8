// The hooks of PocketBase 0.22's JS API (core.App's On* methods, OnBeforeServe aside), and whether a
// handler may name tags (a record's collection id or name, a model's table). A hook file may
// register any of them; FIRED lists those Outpost fires so far, and the others are reported at load.
export const TAGGED_HOOKS: readonly string[] = [
  'onModelBeforeCreate', 'onModelAfterCreate', 'onModelBeforeUpdate', 'onModelAfterUpdate',
  'onModelBeforeDelete', 'onModelAfterDelete', 'onMailerBeforeRecordResetPasswordSend',
  'onMailerAfterRecordResetPasswordSend', 'onMailerBeforeRecordVerificationSend',
  'onMailerAfterRecordVerificationSend', 'onMailerBeforeRecordChangeEmailSend',
  'onMailerAfterRecordChangeEmailSend', 'onFileDownloadRequest', 'onFileBeforeTokenRequest',
  'onFileAfterTokenRequest', 'onRecordAuthRequest', 'onRecordBeforeAuthWithPasswordRequest',
  'onRecordAfterAuthWithPasswordRequest', 'onRecordBeforeAuthRefreshRequest',
  'onRecordAfterAuthRefreshRequest', 'onRecordListExternalAuthsRequest',
  'onRecordBeforeUnlinkExternalAuthRequest', 'onRecordAfterUnlinkExternalAuthRequest',
  'onRecordBeforeRequestPasswordResetRequest', 'onRecordAfterRequestPasswordResetRequest',
  'onRecordBeforeConfirmPasswordResetRequest', 'onRecordAfterConfirmPasswordResetRequest',
  'onRecordBeforeRequestVerificationRequest', 'onRecordAfterRequestVerificationRequest',
  'onRecordBeforeConfirmVerificationRequest', 'onRecordAfterConfirmVerificationRequest',
  'onRecordBeforeRequestEmailChangeRequest', 'onRecordAfterRequestEmailChangeRequest',
  'onRecordBeforeConfirmEmailChangeRequest', 'onRecordAfterConfirmEmailChangeRequest',
  'onRecordsListRequest', 'onRecordViewRequest', 'onRecordBeforeCreateRequest', 'onRecordAfterCreateRequest',
  'onRecordBeforeUpdateRequest', 'onRecordAfterUpdateRequest', 'onRecordBeforeDeleteRequest',
  'onRecordAfterDeleteRequest',
];

export const UNTAGGED_HOOKS: readonly string[] = [
  'onBeforeBootstrap', 'onAfterBootstrap', 'onBeforeApiError', 'onAfterApiError', 'onTerminate',
  'onMailerBeforeAdminResetPasswordSend', 'onMailerAfterAdminResetPasswordSend', 'onRealtimeConnectRequest',
  'onRealtimeDisconnectRequest', 'onRealtimeBeforeMessageSend', 'onRealtimeAfterMessageSend',
  'onRealtimeBeforeSubscribeRequest', 'onRealtimeAfterSubscribeRequest', 'onSettingsListRequest',
  'onSettingsBeforeUpdateRequest', 'onSettingsAfterUpdateRequest', 'onAdminsListRequest',
  'onAdminViewRequest', 'onAdminBeforeCreateRequest', 'onAdminAfterCreateRequest',
  'onAdminBeforeUpdateRequest', 'onAdminAfterUpdateRequest', 'onAdminBeforeDeleteRequest',
  'onAdminAfterDeleteRequest', 'onAdminAuthRequest', 'onAdminBeforeAuthWithPasswordRequest',
  'onAdminAfterAuthWithPasswordRequest', 'onAdminBeforeAuthRefreshRequest', 'onAdminAfterAuthRefreshRequest',
  'onAdminBeforeRequestPasswordResetRequest', 'onAdminAfterRequestPasswordResetRequest',
  'onAdminBeforeConfirmPasswordResetRequest', 'onAdminAfterConfirmPasswordResetRequest',
  'onCollectionsListRequest', 'onCollectionViewRequest', 'onCollectionBeforeCreateRequest',
  'onCollectionAfterCreateRequest', 'onCollectionBeforeUpdateRequest', 'onCollectionAfterUpdateRequest',
  'onCollectionBeforeDeleteRequest', 'onCollectionAfterDeleteRequest', 'onCollectionsBeforeImportRequest',
  'onCollectionsAfterImportRequest',
];

/** What the server fires today. */
export const FIRED: ReadonlySet<string> = new Set([
  'onAfterBootstrap',
  'onRecordsListRequest',
  'onRecordViewRequest',
  'onRecordBeforeCreateRequest',
  'onRecordAfterCreateRequest',
  'onRecordBeforeUpdateRequest',
  'onRecordAfterUpdateRequest',
  'onRecordBeforeDeleteRequest',
  'onRecordAfterDeleteRequest',
  'onRecordAuthRequest',
  'onRecordBeforeAuthWithPasswordRequest',
  'onRecordAfterAuthWithPasswordRequest',
  // records written through the API (a hook's own Dao writes fire none yet)
  'onModelBeforeCreate',
  'onModelAfterCreate',
  'onModelBeforeUpdate',
  'onModelAfterUpdate',
  'onModelBeforeDelete',
  'onModelAfterDelete',
]);
