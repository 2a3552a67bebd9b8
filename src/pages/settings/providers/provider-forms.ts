// The OAuth2 providers as the dashboard knows them: every form under schemas/providers/ (title,
// logo from its `x-provider` facts). Adding a provider file adds a card; nothing here changes.
import { getForm, listForms } from '../../../engine';

export interface ProviderCard {
  /** "google" */
  name: string;
  /** The settings key, "googleAuth". */
  key: string;
  title: string;
  /** public/images/oauth2/<logo> */
  logo: string;
  /** Screens the provider popup may open (its UI schema's root `ui:options.opens`). */
  opens: string[];
}

const PREFIX = 'providers/';

export function providerCards(): ProviderCard[] {
  return listForms()
    .filter((f) => f.startsWith(PREFIX))
    .map((form) => {
      const { schema, uiSchema } = getForm(form);
      const name = form.slice(PREFIX.length);
      const facts = (schema as Record<string, unknown>)['x-provider'] as { logo?: string } | undefined;
      const opens = (uiSchema['ui:options'] as { opens?: unknown } | undefined)?.opens;
      return {
        name,
        key: `${name}Auth`,
        title: String(schema.title ?? name),
        logo: `./images/oauth2/${facts?.logo ?? `${name}.svg`}`,
        opens: Array.isArray(opens) ? opens.map(String) : [],
      };
    });
}
