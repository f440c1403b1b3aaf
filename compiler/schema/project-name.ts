/**
 * The project file's name (issue 40), apart from its reader
 * (compiler/schema/project.ts): what tells it from a config costs a lint
 * nothing, and its validator is loaded only when there is one to read.
 */
export const PROJECT_FILE_NAME = '.boxwright.toml';

/** Whether `file` names a project file (by its last component, either separator): never read as a config of any dialect. */
export function isProjectFilePath(file: string): boolean {
  return /(^|[/\\])\.boxwright\.toml$/.test(file);
}
