// The time sandbox's data: customers and projects in memory, seeded with names that trip up naive clients
// (non-ASCII, commas, quotes). Ids past 2^53 are bigints (a test adds such a project or customer), as clients
// must keep them exact.
import type { Id } from '../../wire/time/ids.js';

export interface Customer {
  id: Id;
  name: string;
}

export interface Project {
  id: Id;
  customerId: Id | null;
  name: string;
  description: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  changedAt: number | null;
  privacy: 1 | 2;
  requiredTask: boolean;
  createdBy: number;
  billable: boolean;
  billBy: 'project' | 'user';
  active: boolean;
  template: boolean;
  /** Decimal as written, e.g. "95.50". */
  rate: string | null;
  valueTotal: number | null;
  timeSeconds: number;
  totalMembers: number;
  totalActiveTasks: number;
}

/** The writable fields, already validated. */
export type ProjectChanges = Partial<
  Pick<Project, 'name' | 'description' | 'active' | 'privacy' | 'customerId' | 'requiredTask' | 'billable' | 'billBy' | 'rate' | 'template'>
>;

const SEED_CUSTOMERS: Customer[] = [
  { id: 3, name: 'Müller & Söhne' },
  { id: 4, name: 'Café Zürich' },
  { id: 5, name: 'ООО "Ромашка"' },
  { id: 7, name: 'Smith, Jones and Partners' },
];

type SeedProject = Omit<Project, 'createdAt' | 'changedAt' | 'createdBy'> & { created: string; changed: string | null };

const SEED_PROJECTS: SeedProject[] = [
  {
    id: 57,
    customerId: 3,
    name: 'Website relaunch',
    description: 'New shop, old customers',
    created: '2019-02-14T04:59:42Z',
    changed: '2019-03-01T10:00:00Z',
    privacy: 2,
    requiredTask: false,
    billable: true,
    billBy: 'project',
    active: true,
    template: false,
    rate: '95.50',
    valueTotal: 1432.5,
    timeSeconds: 15 * 3600,
    totalMembers: 3,
    totalActiveTasks: 4,
  },
  {
    id: 58,
    customerId: 4,
    name: 'Café Zürich — Kassensystem',
    description: null,
    created: '2019-05-02T08:15:00Z',
    changed: null,
    privacy: 1,
    requiredTask: true,
    billable: true,
    billBy: 'user',
    active: true,
    template: false,
    rate: null,
    valueTotal: null,
    timeSeconds: 2 * 3600 + 30 * 60 + 5,
    totalMembers: 2,
    totalActiveTasks: 1,
  },
  {
    id: 59,
    customerId: 5,
    name: 'Проект Альфа',
    description: 'Миграция данных',
    created: '2020-01-20T12:00:00Z',
    changed: '2020-06-30T16:45:10Z',
    privacy: 2,
    requiredTask: false,
    billable: false,
    billBy: 'project',
    active: false,
    template: false,
    rate: null,
    valueTotal: null,
    timeSeconds: 101 * 3600 + 59,
    totalMembers: 1,
    totalActiveTasks: 0,
  },
  {
    id: 60,
    customerId: 3,
    name: '東京オフィス',
    description: null,
    created: '2021-09-09T01:02:03Z',
    changed: null,
    privacy: 2,
    requiredTask: false,
    billable: false,
    billBy: 'project',
    active: true,
    template: false,
    rate: null,
    valueTotal: null,
    timeSeconds: 0,
    totalMembers: 1,
    totalActiveTasks: 0,
  },
  {
    id: 61,
    customerId: 7,
    name: 'Audit, Q3 2023',
    description: 'Fieldwork, report, follow-up',
    created: '2023-07-01T07:30:00Z',
    changed: '2023-10-02T09:00:00Z',
    privacy: 1,
    requiredTask: true,
    billable: true,
    billBy: 'project',
    active: false,
    template: false,
    rate: '120',
    valueTotal: 4800,
    timeSeconds: 40 * 3600,
    totalMembers: 4,
    totalActiveTasks: 0,
  },
  {
    id: 62,
    customerId: null,
    name: 'The "Internal" template',
    description: null,
    created: '2024-02-29T23:59:59Z',
    changed: null,
    privacy: 2,
    requiredTask: false,
    billable: false,
    billBy: 'user',
    active: true,
    template: true,
    rate: null,
    valueTotal: null,
    timeSeconds: 0,
    totalMembers: 1,
    totalActiveTasks: 2,
  },
];

export class TimeStore {
  private readonly customersById = new Map<Id, Customer>();
  private readonly projectsById = new Map<Id, Project>();
  private nextProjectId: number;

  constructor(
    private readonly now: () => number,
    private readonly userId: number,
  ) {
    for (const customer of SEED_CUSTOMERS) this.customersById.set(customer.id, { ...customer });
    for (const { created, changed, ...seed } of SEED_PROJECTS) {
      this.projectsById.set(seed.id, {
        ...seed,
        createdAt: Date.parse(created),
        changedAt: changed === null ? null : Date.parse(changed),
        createdBy: userId,
      });
    }
    this.nextProjectId = Math.max(...SEED_PROJECTS.map((project) => project.id as number)) + 1;
  }

  customers(): Customer[] {
    return [...this.customersById.values()].sort(byId).map((c) => ({ ...c }));
  }

  /** Adds a customer (a test's, with an id of its choosing). */
  addCustomer(customer: Customer): void {
    this.customersById.set(customer.id, { ...customer });
  }

  customer(id: Id): Customer | undefined {
    return this.customersById.get(id);
  }

  renameCustomer(id: Id, name: string): Customer | undefined {
    const customer = this.customersById.get(id);
    if (!customer) return undefined;
    customer.name = name;
    return { ...customer };
  }

  projects(): Project[] {
    return [...this.projectsById.values()].sort(byId);
  }

  project(id: Id): Project | undefined {
    return this.projectsById.get(id);
  }

  /** A new project, with the next id unless one is given (a test's). */
  createProject(changes: ProjectChanges & { name: string }, id?: Id): Project {
    const project: Project = {
      id: id ?? this.nextProjectId++,
      customerId: null,
      description: null,
      createdAt: this.now(),
      changedAt: null,
      privacy: 2,
      requiredTask: false,
      createdBy: this.userId,
      billable: false,
      billBy: 'project',
      active: true,
      template: false,
      rate: null,
      valueTotal: null,
      timeSeconds: 0,
      totalMembers: 1,
      totalActiveTasks: 0,
      ...changes,
    };
    this.projectsById.set(project.id, project);
    return project;
  }

  updateProject(id: Id, changes: ProjectChanges): Project | undefined {
    const project = this.projectsById.get(id);
    if (!project) return undefined;
    Object.assign(project, changes, { changedAt: this.now() });
    return project;
  }

  deleteProject(id: Id): boolean {
    return this.projectsById.delete(id);
  }
}

const byId = (a: { id: Id }, b: { id: Id }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
