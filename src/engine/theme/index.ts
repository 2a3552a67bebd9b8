/** Our rjsf theme: templates drawn in the dashboard's look instead of rjsf's Bootstrap markup. */
import type { ThemeProps } from '@rjsf/core';
import { widgets } from '../../widgets';
import { ArrayFieldItemTemplate, ArrayFieldTemplate, ButtonTemplates } from './ArrayFieldTemplate';
import { BaseInputTemplate } from './BaseInputTemplate';
import { FieldTemplate } from './FieldTemplate';
import { ObjectFieldTemplate } from './ObjectFieldTemplate';

export const theme: ThemeProps = {
  widgets,
  templates: {
    FieldTemplate,
    ObjectFieldTemplate,
    ArrayFieldTemplate,
    ArrayFieldItemTemplate,
    BaseInputTemplate,
    // Errors sit under their fields; there is no summary list.
    ErrorListTemplate: () => null,
    // Root titles belong to the screen's heading; nested ones are drawn by ObjectFieldTemplate.
    TitleFieldTemplate: () => null,
    DescriptionFieldTemplate: () => null,
    ButtonTemplates,
  },
};
