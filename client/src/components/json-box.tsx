import { JsonInput, type JsonInputProps } from '@mantine/core';

/**
 * A JSON text box: checks the syntax when the box loses focus, with the screen's own message (the
 * template editor's and the alert form's differ), and formats valid JSON. The form's own error,
 * set on submit, shows otherwise.
 */
export function JsonBox({
  invalidMessage,
  ...props
}: Omit<JsonInputProps, 'validationError' | 'formatOnBlur'> & { invalidMessage: string }) {
  return (
    <JsonInput
      autosize
      minRows={3}
      maxRows={16}
      ff="monospace"
      formatOnBlur
      validationError={invalidMessage}
      spellCheck={false}
      {...props}
    />
  );
}
