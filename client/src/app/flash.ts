/** A flash banner carried in navigation state (SPEC.md §2: tone success or error and a message). */
export interface Flash {
  tone: 'success' | 'error';
  message: string;
}
