/** Labels of the local sample data (SPEC.md §4). */
export const sampleStatuses = ['wait', 'avail', 'booked', 'passed'] as const;
export type SampleStatus = (typeof sampleStatuses)[number];

export const sampleStatusLabels: Record<SampleStatus, string> = {
  wait: 'Waiting for Availability',
  avail: 'Available to Book',
  booked: 'Booked',
  passed: 'Passed',
};

export const sampleStatusColors: Record<SampleStatus, string> = {
  wait: 'yellow',
  avail: 'green',
  booked: 'blue',
  passed: 'gray',
};

export const discounts = ['ap', 'disneyplus', 'flresident', 'military', 'standard'] as const;
export type Discount = (typeof discounts)[number];

export const discountLabels: Record<Discount, string> = {
  ap: 'AP',
  disneyplus: 'Disney+ Member',
  flresident: 'FL Resident',
  military: 'Military',
  standard: 'Standard',
};

export const quarters = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export type Quarter = (typeof quarters)[number];
