import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// `findBy…` and `waitFor` wait for what the screen shows; a loaded machine may take longer than the
// default second to render it.
configure({ asyncUtilTimeout: 10_000 });

// Testing Library unmounts after each test only when vitest globals are on; they are not here.
afterEach(() => cleanup());

// happy-dom has no FontFaceSet; Mantine's autosizing Textarea listens on document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: Object.assign(new EventTarget(), { ready: Promise.resolve() }),
  });
}
