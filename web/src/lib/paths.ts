// Where Content's "New project" form opens: the screens that find no project link here.
export const NEW_PROJECT_PATH = '/content?new=project';
