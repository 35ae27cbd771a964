/**
 * say-as address. English: street types, directions, unit designators and US state codes
 * written out ("150th CT NE, Redmond, WA" → "150th Court Northeast, Redmond, Washington", Azure's
 * example); house numbers stay as written, ZIP codes are read digit by digit. Chinese: numbers
 * before 号/楼/层/栋/单元 are read as numbers, room numbers (室/房) and others digit by digit. Pure.
 */
import { chineseDigits, chineseInteger, englishDigits } from '../number-words';

// USPS Publication 28, appendix C1 (street suffixes) and C2 (secondary unit designators), and
// the state and territory codes of appendix B.
const STREET: Readonly<Record<string, string>> = {
  ST: 'Street', RD: 'Road', AVE: 'Avenue', AV: 'Avenue', BLVD: 'Boulevard', DR: 'Drive', CT: 'Court', LN: 'Lane', PL: 'Place', SQ: 'Square',
  TER: 'Terrace', PKWY: 'Parkway', HWY: 'Highway', CIR: 'Circle', CRES: 'Crescent', EXPY: 'Expressway', FWY: 'Freeway', TRL: 'Trail', ALY: 'Alley', PLZ: 'Plaza',
};
const DIRECTION: Readonly<Record<string, string>> = { N: 'North', S: 'South', E: 'East', W: 'West', NE: 'Northeast', NW: 'Northwest', SE: 'Southeast', SW: 'Southwest' };
const UNIT: Readonly<Record<string, string>> = { APT: 'Apartment', STE: 'Suite', FL: 'Floor', RM: 'Room', BLDG: 'Building', DEPT: 'Department', UNIT: 'Unit', '#': 'number' };
const STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut', DE: 'Delaware', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland',
  MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey',
  NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina',
  SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
  DC: 'District of Columbia', PR: 'Puerto Rico', GU: 'Guam',
};

export function expandAddress(text: string, zh: boolean): string | null {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t === '') return null;
  return zh ? chineseAddress(t) : englishAddress(t);
}

function englishAddress(text: string): string {
  // Comma-separated parts: the street line first, then city, state (and ZIP).
  return text.split(/\s*,\s*/).map((part, partIndex) => {
    const tokens = part.split(' ');
    return tokens.map((token, i) => {
      const key = token.replace(/\.$/, '').toUpperCase();
      if (/^\d{5}(-\d{4})?$/.test(token) && partIndex > 0) return englishDigits(token.replace('-', ''));
      if (partIndex > 0 && i === 0 && STATES[key] && token === token.toUpperCase()) return STATES[key];
      if (key === 'ST' && i === 0) return 'Saint';
      if (i > 0 && STREET[key]) return STREET[key];
      if (DIRECTION[key] && token === token.toUpperCase() && (i > 0 || tokens.length > 1)) return DIRECTION[key];
      if (UNIT[key]) return UNIT[key];
      if (key === 'PO' && tokens[i + 1]?.toUpperCase() === 'BOX') return 'P O';
      return token;
    }).join(' ');
  }).join(', ');
}

function chineseAddress(text: string): string {
  return text.replace(/(\d+)(?=\s*(号楼|号|楼|层|栋|幢|单元|弄|巷|街|路|区))/g, (d) => chineseInteger(d)).replace(/\d+/g, (d) => chineseDigits(d));
}
