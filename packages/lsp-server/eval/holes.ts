// The oracle: CrossCodeEval-style holes and the declarations they need, found with the TypeScript compiler, which
// shares no code with the server's own import parsing and declaration outlining.
import path from "node:path";
import ts from "typescript";
import type { DeclarationLine, Hole, HolePattern, ImportKind } from "./hole.js";

/** Source extensions the oracle reads (declaration files are not corpus code). */
const SOURCE = /\.(?:[cm]?ts|tsx)$/;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/** Whether a workspace-relative path is a TypeScript corpus source file (declaration files are not). */
export function isTypeScriptSource(file: string): boolean {
  return SOURCE.test(file) && !DECLARATION_FILE.test(file);
}

// Only what the oracle needs: module resolution of relative specifiers with or without `.js`, and symbols.
// No default library: resolving aliases needs no global types, and skipping it saves seconds per corpus.
const COMPILER_OPTIONS: ts.CompilerOptions = {
  noLib: true,
  types: [],
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  jsx: ts.JsxEmit.Preserve,
  noEmit: true,
};

/**
 * Every hole in a workspace's corpus files, sorted by file and position. `packagePaths` maps the workspace's
 * package names to their source (tsconfig `paths`, workspace-relative), for imports across packages.
 *
 * A hole is a use of an identifier X imported from another corpus file, directly followed by `(`, `.` or `<` in a
 * call, `new`, member access, type reference or type-argument list; the cursor sits right after that character.
 * X is resolved through every alias (`checker.getAliasedSymbol`) to its declarations; holes whose X is declared
 * outside the corpus (packages, bare specifiers that do not resolve) or only in the current file are no holes.
 *
 * Namespaces: for `ns.X(` where `ns` is `import * as ns` (or a named import of an `export * as ns` re-export), the
 * identifier imported through the namespace is X, the hole's kind is `namespace`, and the cursor follows `ns.X(`.
 * `ns.` itself is no hole: a module has no declaration line.
 *
 * A hole is dropped when the current file itself contains one of X's declaration lines (as a substring): a request
 * would then contain it without any repository context, and recall would not measure the context.
 *
 * @param root - the workspace folder (absolute)
 * @param files - workspace-relative paths of the corpus files, `/`-separated
 */
export function findHoles(
  root: string,
  files: readonly string[],
  packagePaths: Readonly<Record<string, readonly string[]>> = {},
): Hole[] {
  const absolute = (file: string) => path.join(root, file);
  const relative = (fileName: string) => path.relative(root, fileName).split(path.sep).join("/");
  const corpus = new Set(files.filter(isTypeScriptSource).map(absolute));
  const { program, checker } = typeScriptProgram(root, corpus, packagePaths);
  const holes: Hole[] = [];

  for (const file of [...files].filter(isTypeScriptSource).sort()) {
    const source = program.getSourceFile(absolute(file));
    if (!source) continue;
    const text = source.text;
    const imports = importedFiles(source, checker, corpus).map(relative);

    const declarationLines = (symbol: ts.Symbol): DeclarationLine[] => {
      const found: DeclarationLine[] = [];
      for (const declaration of symbol.declarations ?? []) {
        const declaring = declaration.getSourceFile();
        if (
          ts.isSourceFile(declaration) ||
          declaring === source ||
          !corpus.has(path.normalize(declaring.fileName))
        )
          continue;
        const name = ts.getNameOfDeclaration(declaration) ?? declaration;
        const line = declaring.getLineAndCharacterOfPosition(name.getStart(declaring)).line;
        const lineText = trimmedLine(declaring, line);
        if (lineText !== "") found.push({ file: relative(declaring.fileName), line, text: lineText });
      }
      return found;
    };

    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && "(.<".includes(text[node.end] ?? " ")) {
        const hole = holeAt(node);
        if (hole) holes.push(hole);
      }
      node.forEachChild(visit);
    };

    const holeAt = (identifier: ts.Identifier): Hole | undefined => {
      const use = importedUse(identifier, checker);
      if (!use) return undefined;
      const pattern = patternOf(use.expression);
      if (!pattern) return undefined;
      const declarations = declarationLines(use.target);
      if (declarations.length === 0 || declarations.some((d) => text.includes(d.text))) return undefined;
      const offset = use.expression.end + 1;
      const cursor = source.getLineAndCharacterOfPosition(offset);
      return {
        id: `${file}:${cursor.line + 1}:${cursor.character + 1}`,
        file,
        line: cursor.line,
        character: cursor.character,
        offset,
        name: identifier.text,
        stratum: use.kind,
        pattern,
        declarations,
        imports,
        crossPackage: !/^[./]/.test(use.specifier),
      };
    };

    source.forEachChild(visit);
  }
  return holes;
}

/** The oracle's compiler over a corpus: its program, its checker, and the language service over that program. */
export interface TypeScriptOracle {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  /** What tsserver answers (`getTypeDefinitionAtPosition`, …), on the same program. */
  readonly service: ts.LanguageService;
}

/** The last program made, by its root and files: both oracles read the same corpus. */
let lastProgram: (TypeScriptOracle & { key: string }) | undefined;

/**
 * The compiler's program over a corpus (absolute paths), with the workspace's package names mapped to their source
 * (`packagePaths`, workspace-relative); made once per corpus, by a language service over files that do not change
 * (so that the service answers on that very program).
 */
export function typeScriptProgram(
  root: string,
  corpus: ReadonlySet<string>,
  packagePaths: Readonly<Record<string, readonly string[]>>,
): TypeScriptOracle {
  const key = JSON.stringify([root, [...corpus], packagePaths]);
  if (lastProgram?.key === key) return lastProgram;
  const paths = Object.fromEntries(
    Object.entries(packagePaths).map(([name, targets]) => [name, [...targets]]),
  );
  const options: ts.CompilerOptions = { ...COMPILER_OPTIONS, baseUrl: root, paths };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...corpus],
    getScriptVersion: () => "1",
    getScriptSnapshot: (fileName) => {
      const text = ts.sys.readFile(fileName);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host);
  const program = service.getProgram();
  if (!program) throw new Error(`no TypeScript program over ${root}`);
  lastProgram = { key, program, checker: program.getTypeChecker(), service };
  return lastProgram;
}

/** An identifier that names something imported: the expression typed before the `(`, `.` or `<`, and its target. */
interface ImportedUse {
  /** `X`, or `ns.X` for a namespace member. */
  expression: ts.Node;
  kind: ImportKind;
  /** The symbol X finally refers to, aliases resolved. */
  target: ts.Symbol;
  /** The module specifier of the import that brought X (or its namespace) in. */
  specifier: string;
}

function importedUse(identifier: ts.Identifier, checker: ts.TypeChecker): ImportedUse | undefined {
  const parent = identifier.parent;
  // `ns.X` (a value) or `ns.X` (a type name): X is the imported identifier when `ns` is a module.
  const qualifier =
    ts.isPropertyAccessExpression(parent) && parent.name === identifier
      ? parent.expression
      : ts.isQualifiedName(parent) && parent.right === identifier
        ? parent.left
        : undefined;
  if (qualifier) {
    if (!ts.isIdentifier(qualifier)) return undefined;
    const namespace = checker.getSymbolAtLocation(qualifier);
    if (!isModule(resolve(namespace, checker))) return undefined;
    const target = resolve(checker.getSymbolAtLocation(identifier), checker);
    const specifier = specifierOf(namespace?.declarations?.[0]);
    return target && !isModule(target) && specifier !== undefined
      ? { expression: parent, kind: "namespace", target, specifier }
      : undefined;
  }
  const symbol = checker.getSymbolAtLocation(identifier);
  const declaration = symbol && symbol.flags & ts.SymbolFlags.Alias ? symbol.declarations?.[0] : undefined;
  if (!declaration || isInsideImport(identifier)) return undefined;
  let kind: ImportKind;
  if (ts.isImportClause(declaration)) kind = "default";
  else if (ts.isImportSpecifier(declaration))
    kind = (declaration.propertyName ?? declaration.name).text === "default" ? "default" : "named";
  else return undefined; // a namespace import itself (`ns(`), `import x = require()`, a local re-export
  const target = resolve(symbol, checker);
  const specifier = specifierOf(declaration);
  return target && !isModule(target) && specifier !== undefined
    ? { expression: identifier, kind, target, specifier }
    : undefined;
}

/** The module specifier of the import declaration a binding belongs to. */
function specifierOf(declaration: ts.Node | undefined): string | undefined {
  for (let n = declaration; n; n = n.parent) {
    if (ts.isImportDeclaration(n))
      return ts.isStringLiteral(n.moduleSpecifier) ? n.moduleSpecifier.text : undefined;
  }
  return undefined;
}

/** The symbol an alias finally names, or the symbol itself; undefined when it does not resolve. */
function resolve(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): ts.Symbol | undefined {
  if (!symbol) return undefined;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return target.declarations?.length ? target : undefined;
}

function isModule(symbol: ts.Symbol | undefined): boolean {
  return symbol?.declarations?.some(ts.isSourceFile) ?? false;
}

function isInsideImport(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isImportEqualsDeclaration(n))
      return true;
  }
  return false;
}

/** What is being typed right after `expression`, when it is one of the hole patterns. */
function patternOf(expression: ts.Node): HolePattern | undefined {
  const parent = expression.parent;
  const next = expression.getSourceFile().text[expression.end];
  const callee =
    (ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === expression
      ? parent
      : undefined;
  if (next === "(" && callee && !callee.typeArguments) return ts.isNewExpression(callee) ? "new" : "call";
  if (next === ".") {
    if (ts.isPropertyAccessExpression(parent) && parent.expression === expression) return "member";
    if (ts.isQualifiedName(parent) && parent.left === expression) return "member";
    return undefined;
  }
  if (next === "<") {
    if (callee?.typeArguments) return "generic";
    if (ts.isTypeReferenceNode(parent) && parent.typeName === expression && parent.typeArguments)
      return "generic";
    if (ts.isExpressionWithTypeArguments(parent) && parent.expression === expression && parent.typeArguments)
      return "generic";
  }
  return undefined;
}

/** The corpus files a source file imports from (static imports and re-exports), sorted. */
export function importedFiles(
  source: ts.SourceFile,
  checker: ts.TypeChecker,
  corpus: ReadonlySet<string>,
): string[] {
  const found = new Set<string>();
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
    if (!specifier) continue;
    const module = checker.getSymbolAtLocation(specifier);
    const declaration = module?.declarations?.find(ts.isSourceFile);
    if (declaration && corpus.has(path.normalize(declaration.fileName))) found.add(declaration.fileName);
  }
  return [...found].sort();
}

/** A line of a source file, trimmed (line terminators included), split as the compiler counts lines. */
export function trimmedLine(source: ts.SourceFile, line: number): string {
  const starts = source.getLineStarts();
  return source.text.slice(starts[line], starts[line + 1] ?? source.text.length).trim();
}
