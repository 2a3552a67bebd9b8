/**
 * Whether text has the shape of an email address, close to govalidator's IsEmail (which 0.22's
 * is.EmailFormat uses): a dotted domain is required. The server reads a sign-in identity of this
 * shape as an email, anything else as a username.
 *
 * Pure module: no React, no Node APIs.
 */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const isEmailAddress = (value: string): boolean => value.length <= 254 && EMAIL.test(value);
