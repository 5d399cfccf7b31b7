// Content projects and their items: the server's own shapes (/v1's Project and Item schemas, which
// the hub's content routes answer), for the content screens and the builders' pickers.
import type { Item as ItemSchema, ItemSummary as ItemSummarySchema } from '@server/api/items/schemas';
import type { Project as ProjectSchema } from '@server/api/projects/schemas';

export type Project = ProjectSchema;
/** An item as Get an item answers it (a page's text and html included). */
export type Item = ItemSchema;
/** An item in a list (a page without its text and html). */
export type ItemSummary = ItemSummarySchema;
