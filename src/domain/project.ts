// Projects and their content items (pages, files, datasets, images, links).

export const ITEM_KINDS = ['page', 'file', 'dataset', 'image', 'link'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** A page's title: one line of 1 to this many characters (the content API and output.project). */
export const MAX_PAGE_TITLE_LENGTH = 500;

/** A project's name: one line of 1 to this many characters (the hub and `projects create`). */
export const MAX_PROJECT_NAME_LENGTH = 200;
/** A project's description: at most this many characters; may be empty. */
export const MAX_PROJECT_DESCRIPTION_LENGTH = 2_000;
