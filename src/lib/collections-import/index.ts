// Pure logic of the collections import: parsing and normalising
// the pasted JSON, detecting changes for merge or replace, the deleteMissing removal list and the
// side-by-side line diff of the review popup.
export * from './parse';
export * from './changes';
export * from './line-diff';
