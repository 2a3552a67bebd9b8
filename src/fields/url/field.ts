// Url: an address govalidator's IsURL accepts, optionally limited to or barred from domains.
import { requiredMessage, withMessages } from '../shared/schema';
import { cellText, describeDomains, domainAllowed, domainOptions, fieldError, stringValue, textToForm } from '../shared/text-like';
import type { FieldDefinition } from '../types';

const HOST_LABEL = /^[A-Za-z0-9\u00a1-\uffff](?:[A-Za-z0-9\u00a1-\uffff_-]{0,62})?$/;
const SCHEMES = ['http:', 'https:', 'ftp:', 'ws:', 'wss:', 'irc:', 'rtmp:', 'rtsp:', 'udp:', 'tcp:', 'git:', 'ssh:', 'sftp:', 'file:', 'mailto:'];
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/** Close to govalidator.IsURL (what is.URL uses): the scheme is optional, a real host is not. */
function isUrl(val: string): boolean {
  if (val.length > 2083 || /\s/.test(val) || val.startsWith('.')) return false;
  const hasScheme = HAS_SCHEME.test(val);
  if (!hasScheme && val.includes('://')) return false;
  let u: URL;
  try {
    u = new URL(hasScheme ? val : `http://${val}`);
  } catch {
    return false;
  }
  // govalidator allows any scheme of letters; keep to the common ones
  if (hasScheme && !SCHEMES.includes(u.protocol) && !/^[a-z]+:$/.test(u.protocol)) return false;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':')) return true;
  const labels = host.split('.');
  if (labels.length < 2) return false;
  return labels.every((l) => l !== '' && HOST_LABEL.test(l) && !l.startsWith('-') && !l.endsWith('-'));
}

export const url: FieldDefinition = {
  type: 'url',
  label: 'Url',
  optionKinds: [['exceptDomains', 'strings?'], ['onlyDomains', 'strings?']],
  defaultOptions: domainOptions,
  ...stringValue,
  valueSchema: () => withMessages({ type: 'string' }, requiredMessage()),
  check(value, field) {
    const val = typeof value === 'string' ? value : '';
    if (val === '') return null;
    if (!isUrl(val)) return fieldError('validation_invalid_url', 'Must be a valid url');
    let host = '';
    try {
      if (HAS_SCHEME.test(val)) host = new URL(val).host;
    } catch {
      host = '';
    }
    return domainAllowed(host, field.options) ? null : fieldError('validation_url_domain_not_allowed', 'Url domain is not allowed');
  },
  record: { widget: 'uri', toForm: textToForm },
  docs: { example: () => 'https://example.com', typeLabel: () => 'String (URL)', describe: describeDomains },
  io: { importCell: cellText },
  list: { searchable: true },
};
