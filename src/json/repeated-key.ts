// A key given twice in one JSON object. JSON.parse keeps the last value without a word, which is right for an
// answer, but a file that decides where cip acts (a project file) must not mean one thing to a reader of it and
// another to cip: `{"profile": "staging", "profile": "prod"}` reads as staging and acts in prod.

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * The first key that one object of this JSON text gives twice, at any depth, as JSON.parse reads it (escapes
 * decoded: "pro\u0066ile" is "profile"); undefined when none. The text must be JSON that JSON.parse accepts.
 * One pass, no recursion.
 */
export function repeatedKey(text: string): string | undefined {
  // The keys seen in each object open at this point; an array holds none.
  const open: (Set<string> | undefined)[] = [];
  for (let at = 0; at < text.length; at++) {
    const ch = text[at];
    if (ch === '{') open.push(new Set());
    else if (ch === '[') open.push(undefined);
    else if (ch === '}' || ch === ']') open.pop();
    else if (ch === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      // In valid JSON a string followed by a colon is a key; any other string is a value.
      let next = end + 1;
      while (WHITESPACE.has(text[next]!)) next++;
      const keys = open.at(-1);
      if (keys && text[next] === ':') {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
      }
      at = end;
    }
  }
  return undefined;
}
