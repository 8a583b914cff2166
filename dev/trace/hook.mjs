// Module hook for dev/trace/collect.mjs: puts `__jlTrace(file)` at the start of every function of dist/lib/**.
import ts from 'typescript';

const MARK = '/dist/lib/';

function instrument(src, file) {
  const sf = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = []; // [position, text]
  const call = `__jlTrace(${JSON.stringify(file)})`;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      if (ts.isBlock(node.body)) edits.push([node.body.getStart(sf) + 1, `${call};`]);
      else {
        edits.push([node.body.getStart(sf), `(${call}, `]);
        edits.push([node.body.end, ')']);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  edits.sort((a, b) => b[0] - a[0]);
  let out = src;
  for (const [at, text] of edits) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

export async function load(url, context, nextLoad) {
  const r = await nextLoad(url, context);
  const i = url.indexOf(MARK);
  if (i < 0 || !url.endsWith('.js') || r.format !== 'module') return r;
  const src = typeof r.source === 'string' ? r.source : Buffer.from(r.source).toString('utf8');
  return { ...r, source: instrument(src, `lib/${url.slice(i + MARK.length, -3)}.ts`) };
}
