// The OAuth2 providers as the dashboard knows them: every form under schemas/providers/ (title,
// logo from its `x-provider` facts). Adding a provider file adds a card; nothing here changes.
import { getForm, listForms, parseExtraActions, type ScreenAction } from '../../../engine';

export interface ProviderCard {
  /** "google" */
  name: string;
  /** The settings key, "googleAuth". */
  key: string;
  title: string;
  /** public/images/oauth2/<logo> */
  logo: string;
  /** Actions the provider adds to its popup (its UI schema's root `ui:options.actions`), e.g. Apple's secret generator. */
  actions: ScreenAction[];
}

const PREFIX = 'providers/';

export function providerCards(): ProviderCard[] {
  return listForms()
    .filter((f) => f.startsWith(PREFIX))
    .map((form) => {
      const { schema, uiSchema } = getForm(form);
      const name = form.slice(PREFIX.length);
      const facts = (schema as Record<string, unknown>)['x-provider'] as { logo?: string } | undefined;
      const actions = (uiSchema['ui:options'] as { actions?: unknown } | undefined)?.actions;
      return {
        name,
        key: `${name}Auth`,
        title: String(schema.title ?? name),
        logo: `./images/oauth2/${facts?.logo ?? `${name}.svg`}`,
        actions: parseExtraActions(`schemas/${form}.ui.json`, actions),
      };
    });
}
