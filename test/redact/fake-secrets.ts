// Every fake secret is assembled from pieces so this repository holds no literal secret-shaped
// string that a scanner would flag.
const alnum = (n: number, seed = 7): string => {
  const chars = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC';
  let out = '';
  for (let i = 0; i < n; i += 1) out += chars[(i * seed + 3) % chars.length];
  return out;
};

export const FAKE = {
  openai: `${'sk-'}${'proj-'}${alnum(40)}`,
  anthropic: `${'sk-'}${'ant-'}api03-${alnum(60, 5)}`,
  githubPat: `${'gh'}p_${alnum(36, 11)}`,
  githubOauth: `${'gh'}o_${alnum(36, 13)}`,
  githubServer: `${'gh'}s_${alnum(36, 17)}`,
  githubFine: `${'github'}_pat_${alnum(22, 3)}_${alnum(59, 19)}`,
  aws: `${'AK'}IA${'QWERTYUIOPASDFGH'}`,
  slack: `${'xo'}xb-${'123456789012'}-${'123456789012'}-${alnum(24, 23)}`,
  google: `${'AI'}za${alnum(35, 29)}`,
  jwt: `${'ey'}J${alnum(20, 3)}.${'ey'}J${alnum(30, 5)}.${alnum(43, 7)}`,
  bearerToken: alnum(32, 31),
  privateKey: `-----BEGIN ${'RSA PRIVATE'} KEY-----\n${alnum(64)}\n${alnum(64, 3)}\n-----END ${'RSA PRIVATE'} KEY-----`,
  password: `Hunter${alnum(10, 9)}`,
  urlPassword: `p4ss${alnum(8, 13)}`,
};
