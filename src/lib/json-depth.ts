// Nesting depth of JSON text, measured without recursion. V8's JSON.stringify recurses and throws
// RangeError somewhere past 4,000 levels, so a deeper value would be stored and then break every
// answer that carries it. Bodies and json field values deeper than MAX_JSON_DEPTH are refused as
// undecodable instead (Go's decoder, which 0.22 uses, has such a limit too, at 10,000).
export const MAX_JSON_DEPTH = 1000;

/** Whether `text` nests arrays/objects more than `max` levels deep (strings are skipped). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // skip the string, honouring backslash escapes
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
