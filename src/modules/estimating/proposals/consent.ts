// The consent to sign electronically a signer gives before accepting (ESIGN Act, 15 U.S.C. 7001(c),
// and UETA §5: a party must agree to do business electronically). The text is shown on the page,
// is part of the signed document, and its version is recorded with the signature, so a later
// change of wording never blurs what an earlier signer agreed to. Change the text: change the version.
export const CONSENT_VERSION = 'esign-2026-11';

export const CONSENT_TEXT =
  'I agree to sign this proposal electronically. I understand that my typed name (and my drawn ' +
  'signature, if I add one) is my legal signature on this proposal, with the same effect as a ' +
  'signature on paper; that I may ask for a paper copy at no charge by contacting the sender; ' +
  'that I may withdraw this consent before signing by closing this page; and that a copy of the ' +
  'signed proposal is kept by the sender and is available to me on this page.';
