-- Sprints planned in the hub (issue 27, part 1): a sprint's goal, as its planner writes it.
-- Additive: the previous release reads wm_sprints unchanged ('' is what every older sprint had).
alter table wm_sprints add column goal text not null default '';
