// Payroll rules shared by time entries, job costs and the reports: worked time split into regular,
// overtime and doubletime per worker-week, local dates of instants, labor cost.
export * from './overtime.ts';
