// The virtual modules served by src/engine/vite-plugin-validators.ts.
declare module 'virtual:outpost-validators' {
  import type { StandaloneValidate } from './validation';
  /** Strict precompiled validators for the forms the lite renderer draws, by form name. */
  export const liteValidators: Record<string, StandaloneValidate>;
}

declare module 'virtual:outpost-rjsf-validators' {
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  /** rjsf's precompiled validator functions for the forms rjsf draws, by form name. */
  export const rjsfValidators: Record<string, ValidatorFunctions>;
}
