// Projects and their content items (pages, files, datasets, images, links).

export const ITEM_KINDS = ['page', 'file', 'dataset', 'image', 'link'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
