/**
 * Screen texts (docs/product.md, "Screens and routes") and the client-side fallbacks and success messages that belong
 * to no input schema. Server messages stay in their domain's schema file.
 */
export const alertListMessages = {
  searchPlaceholder: 'Search alerts, resorts, tags, family names…',
  empty: 'No alerts yet. Create one above.',
  noMatches: 'No alerts match your search or filters. Try widening your filters.',
  loading: 'Loading alerts...',
  loadFailed: (message: string) => `Unable to load alerts: ${message}`,
  loadFailedFallback: 'Unable to load alerts',
  untitled: 'Untitled alert',
  removeConfirm: (title: string) => `Remove alert "${title}"? This action cannot be undone.`,
  removed: (id: string) => `Alert ${id} removed.`,
  removeFailed: 'Unable to remove the alert.',
  archived: (title: string) => `Alert ${title} archived: it is no longer polled. Restore it from Archived.`,
  archiveFailed: 'Unable to archive the alert.',
  statusChanged: (title: string, status: string) => `Alert ${title} marked as ${status}.`,
  statusFailed: 'Unable to update the alert status.',
  createFailed: 'Unable to create alert.',
  updateFailed: 'Unable to update the alert.',
  testFailed: 'Alert test failed.',
  notFoundForEditing: (id: string) => `Alert ${id} could not be found for editing.`,
  editingCancelled: 'Editing cancelled.',
} as const;

export const settingsMessages = {
  primaryEmailRequired: 'Please add a primary email before saving.',
  newPasswordsMustMatch: 'New passwords need to match before we update them.',
  profileSaved: 'Profile details saved.',
  contactSaved: 'Contact details saved.',
  passwordChanged: 'Password updated.',
  preferencesSaved: 'Notification preferences saved.',
  saveFailed: 'Unable to save your changes. Please try again.',
} as const;

/** How long the Settings confirmations stay. */
export const settingsConfirmationMs = 4000;
/** How long a toast stays. */
export const toastMs = 3000;
