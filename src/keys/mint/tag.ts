// The tag on the name of every key trident makes: `<name>~<8 hex>`, new for each request. No other client can
// have chosen it, so a key carrying a request's tag is provably that request's key. It is what lets trident
// delete a key whose answer it lost without ever touching a key of the same name that someone else made.
import { randomBytes } from 'node:crypto';

const TAG = /~[0-9a-f]{8}$/;

export function taggedName(name: string): string {
  return `${untagged(name)}~${randomBytes(4).toString('hex')}`;
}

/** True for a name that ends as trident's tags do: a name given so could pass for another request's key. */
export const looksTagged = (name: string): boolean => TAG.test(name);

/** The name without a tag trident added: the name as given (a rotation names its key after the old one). */
export function untagged(name: string): string {
  return name.replace(TAG, '');
}
