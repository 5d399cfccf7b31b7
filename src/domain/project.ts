// Projects and their content items (pages, files, datasets, images, links).

export const ITEM_KINDS = ['page', 'file', 'dataset', 'image', 'link'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** A page's title: one line of 1 to this many characters (the content API and output.project). */
export const MAX_PAGE_TITLE_LENGTH = 500;
