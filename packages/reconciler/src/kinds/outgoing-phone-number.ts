/**
 * An operator's outgoing phone number by name. The service takes `OutgoingPhoneNumberId`, an `Id` of
 * `GET /OutgoingPhoneNumber` (`{Id, PhoneNumber, Description}`; published definition, section 13), which says
 * nothing to a reader of the config. So a declaration may write `outgoingPhoneNumber:` (monsync's own key) with the
 * number or its description; the plan looks it up in the numbers read and sends the id, and `pull` writes the number
 * back wherever the id resolves. The lookup is one function each way, here.
 */
import { OPERATOR_KIND } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import type { ApiObject, LiveSnapshot } from '../live/types.js';
import { planProblem, type PlanProblem } from '../plan/errors.js';

/** The key a declaration names its number with; its `OutgoingPhoneNumberId` is what is sent. */
export const OUTGOING_PHONE_NUMBER = 'outgoingPhoneNumber';
const ID_FIELD = 'OutgoingPhoneNumberId';

/** Whether the plan needs `GET /OutgoingPhoneNumber`: some managed operator names its number. */
export function namesOutgoingPhoneNumbers(desired: DesiredState): boolean {
  if (desired.settings.manage[OPERATOR_KIND.section] === undefined) return false;
  return (desired.operators ?? []).some(({ value }) => typeof value[OUTGOING_PHONE_NUMBER] === 'string');
}

/** A phone number as digits and a leading `+`: people write spaces, dashes, dots and brackets. */
const digitsOf = (text: string): string => text.replace(/[\s\-.()/]/g, '');

/** The numbers a name means: those whose PhoneNumber has the same digits, else those whose Description matches (case ignored). */
function numbersNamed(name: string, numbers: readonly ApiObject[]): ApiObject[] {
  const digits = digitsOf(name);
  const byNumber = numbers.filter((n) => typeof n['PhoneNumber'] === 'string' && digits !== '' && digitsOf(n['PhoneNumber']) === digits);
  if (byNumber.length > 0) return byNumber;
  const described = name.trim().toLowerCase();
  return numbers.filter((n) => typeof n['Description'] === 'string' && n['Description'].trim().toLowerCase() === described);
}

const label = (n: ApiObject): string => `${String(n['PhoneNumber'] ?? '')}${typeof n['Description'] === 'string' && n['Description'] !== '' ? ` (${n['Description']})` : ''} = ${String(n['Id'])}`;

/**
 * The desired state with every managed operator's `outgoingPhoneNumber` replaced by its `OutgoingPhoneNumberId`,
 * or the problems of names that match no number or several, positioned at the field.
 */
export function resolveOutgoingPhoneNumbers(desired: DesiredState, live: Pick<LiveSnapshot, 'outgoingPhoneNumbers'>): { desired: DesiredState; problems: PlanProblem[] } {
  if (!namesOutgoingPhoneNumbers(desired)) return { desired, problems: [] };
  const numbers = live.outgoingPhoneNumbers ?? [];
  const known = numbers.length === 0 ? 'the account lists none' : `the account's numbers: ${numbers.map(label).join(', ')}`;
  const problems: PlanProblem[] = [];
  const operators = (desired.operators ?? []).map((declared) => {
    const name = declared.value[OUTGOING_PHONE_NUMBER];
    if (typeof name !== 'string') return declared;
    const at = declared.fieldSources?.[OUTGOING_PHONE_NUMBER] ?? declared.source;
    const found = numbersNamed(name, numbers);
    if (found.length !== 1) {
      const what = found.length === 0 ? 'names no outgoing phone number of the account' : `names ${found.length} outgoing phone numbers; write the PhoneNumber, or OutgoingPhoneNumberId`;
      problems.push(planProblem('UNRESOLVED_REFERENCE', `operator \`${declared.value.Email}\`: outgoingPhoneNumber "${name}" ${what} (${found.length === 0 ? known : found.map(label).join(', ')})`, at));
      return declared;
    }
    const { [OUTGOING_PHONE_NUMBER]: _name, ...rest } = declared.value;
    return { ...declared, value: { ...rest, [ID_FIELD]: found[0]?.['Id'] } as typeof declared.value };
  });
  return { desired: { ...desired, operators }, problems };
}

/** For `pull`: the PhoneNumber to write for an id, when it names that one number and no other. */
export function outgoingPhoneNumberName(id: unknown, numbers: readonly ApiObject[] | undefined): string | undefined {
  const number = (numbers ?? []).find((n) => n['Id'] === id);
  const text = number?.['PhoneNumber'];
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const named = numbersNamed(text, numbers ?? []);
  return named.length === 1 ? text : undefined;
}
