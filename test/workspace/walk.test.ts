// The users' walk: another workspace's users are never seen, and reading them needs read_jobs.
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from './walk.ts';

walkArea(usersWalk);
