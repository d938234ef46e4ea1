// The member-access oracle for TypeScript (issue 24): `x.m` where x is a local, a parameter or a field and the type
// that declares m is declared in another corpus file; the compiler says which member m is. Shares no code with the
// server's typing rules.
import path from "node:path";
import ts from "typescript";
import type { DeclarationLine, Hole, Receiver, ReceiverType } from "./hole.js";
import { importedFiles, isTypeScriptSource, trimmedLine, typeScriptProgram } from "./holes.js";

/**
 * Every member-access hole of a workspace's TypeScript corpus files, sorted by file and position.
 *
 * A hole is a property access `x.m` (or `x?.m`, `this.f.m`) whose receiver x is a local variable, a parameter or a
 * field (`this.f`, `obj.f`; not an imported name, a class, a namespace or an enum) and whose member m the checker
 * finds on x's type (`checker.getTypeAtLocation(x)`, `undefined` and `null` removed) with declarations in another
 * corpus file; the cursor sits right after the `.`, the rest of the line removed. m's declaration lines are its
 * declarations' name lines in those files; a hole is dropped when the current file contains one of them.
 *
 * The compiler runs without the default library (as the import oracle does): a receiver whose type comes from it
 * (an `await` of a `Promise`, an array's element) is no hole.
 */
export function findMemberHoles(
  root: string,
  files: readonly string[],
  packagePaths: Readonly<Record<string, readonly string[]>> = {},
): Hole[] {
  const absolute = (file: string) => path.join(root, file);
  const relative = (fileName: string) => path.relative(root, fileName).split(path.sep).join("/");
  const corpus = new Set(files.filter(isTypeScriptSource).map(absolute));
  const { program, checker, service } = typeScriptProgram(root, corpus, packagePaths);
  const holes: Hole[] = [];
  for (const file of [...files].filter(isTypeScriptSource).sort()) {
    const source = program.getSourceFile(absolute(file));
    if (!source) continue;
    const imports = importedFiles(source, checker, corpus).map(relative);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const hole = holeAt(node, source, file, imports);
        if (hole) holes.push(hole);
      }
      node.forEachChild(visit);
    };
    source.forEachChild(visit);
  }
  return holes;

  function holeAt(
    access: ts.PropertyAccessExpression,
    source: ts.SourceFile,
    file: string,
    imports: readonly string[],
  ): Hole | undefined {
    const receiver = receiverKind(access.expression, checker);
    if (!receiver || ts.isPrivateIdentifier(access.name)) return undefined;
    const type = checker.getNonNullableType(checker.getTypeAtLocation(access.expression));
    const member = checker.getPropertyOfType(type, access.name.text);
    const declarations: DeclarationLine[] = [];
    for (const declaration of member?.declarations ?? []) {
      const declaring = declaration.getSourceFile();
      if (declaring === source || !corpus.has(path.normalize(declaring.fileName))) continue;
      const name = ts.getNameOfDeclaration(declaration) ?? declaration;
      const line = declaring.getLineAndCharacterOfPosition(name.getStart(declaring)).line;
      const text = trimmedLine(declaring, line);
      if (text !== "") declarations.push({ file: relative(declaring.fileName), line, text });
    }
    if (declarations.length === 0 || declarations.some((d) => source.text.includes(d.text))) return undefined;
    // Right after the `.` (or `?.`).
    const offset = access.name.getStart(source);
    const cursor = source.getLineAndCharacterOfPosition(offset);
    return {
      id: `${file}:${cursor.line + 1}:${cursor.character + 1}`,
      file,
      line: cursor.line,
      character: cursor.character,
      offset,
      name: access.name.text,
      stratum: receiver,
      pattern: "access",
      declarations,
      imports,
      crossPackage: false,
      receiverType: receiverTypeOf(access.expression, source),
    };
  }

  /**
   * What tsserver answers for `textDocument/typeDefinition` at the receiver's name (x, or f of `this.f`, or
   * `this`): the language service's own `getTypeDefinitionAtPosition` on the oracle's program, its corpus files
   * kept (without the default library there are no others), each definition's name line.
   */
  function receiverTypeOf(expression: ts.Expression, source: ts.SourceFile): ReceiverType {
    const name = ts.isPropertyAccessExpression(expression) ? expression.name : expression;
    const start = name.getStart(source);
    const at = source.getLineAndCharacterOfPosition(start);
    const declarations = (service.getTypeDefinitionAtPosition(source.fileName, start) ?? []).flatMap(
      (definition) => {
        const declaring = program.getSourceFile(definition.fileName);
        if (!declaring || !corpus.has(path.normalize(declaring.fileName))) return [];
        const { line } = declaring.getLineAndCharacterOfPosition(definition.textSpan.start);
        return [{ file: relative(declaring.fileName), line }];
      },
    );
    return {
      line: at.line,
      character: at.character,
      end: at.character + name.getEnd() - start,
      declarations,
    };
  }
}

/** What the receiver of a member access is: a local or parameter by name, `this`, or a field; else undefined. */
function receiverKind(expression: ts.Expression, checker: ts.TypeChecker): Receiver | undefined {
  if (expression.kind === ts.SyntaxKind.ThisKeyword) return "self";
  if (ts.isPropertyAccessExpression(expression)) {
    const symbol = checker.getSymbolAtLocation(expression.name);
    return symbol && symbol.flags & ts.SymbolFlags.Property && receiverKind(expression.expression, checker)
      ? "field"
      : undefined;
  }
  if (!ts.isIdentifier(expression)) return undefined;
  const symbol = checker.getSymbolAtLocation(expression);
  if (!symbol || symbol.flags & ts.SymbolFlags.Alias) return undefined;
  return symbol.flags & (ts.SymbolFlags.Variable | ts.SymbolFlags.Property) ? "name" : undefined;
}
