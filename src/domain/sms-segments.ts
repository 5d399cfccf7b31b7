// How many SMS segments a text takes, which is what carriers bill (and so what we bill). A text of
// only GSM 03.38 characters fits 160 in one segment, 153 per segment once split (the rest of each
// segment carries the concatenation header); its extension characters (€, [, ], {, }, …) take two.
// Any other character makes the whole text UCS-2: 70 code units in one segment, 67 once split.

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export interface SmsSize {
  encoding: 'gsm7' | 'ucs2';
  segments: number;
}

export function smsSegments(text: string): SmsSize {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (BASIC.has(ch)) septets += 1;
    else if (EXTENSION.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: 'gsm7', segments: septets === 0 ? 1 : septets <= 160 ? 1 : Math.ceil(septets / 153) };
  // UCS-2 counts UTF-16 code units: an emoji (a surrogate pair) takes two.
  const units = text.length;
  return { encoding: 'ucs2', segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}
