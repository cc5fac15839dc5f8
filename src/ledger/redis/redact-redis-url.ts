/**
 * The URL with its password removed, for messages and `location`.
 * @example redactRedisUrl('redis://:s3cret@cache:6379/2') // 'redis://cache:6379/2'
 */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString();
  } catch {
    // Unparsable: drop the whole user-info part rather than risk printing a secret.
    return url.replace(/\/\/[^/]*@/, '//');
  }
}
