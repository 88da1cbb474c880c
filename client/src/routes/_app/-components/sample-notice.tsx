import { Alert } from '@mantine/core';

/** Says plainly that a view works on local sample data and saves nothing. */
export function SampleNotice() {
  return (
    <Alert variant="light" color="gray" mb="md" title="Sample data">
      This view is a preview on local sample data. Changes stay in this browser tab and are not saved.
    </Alert>
  );
}
