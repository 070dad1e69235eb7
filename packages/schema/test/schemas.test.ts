import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_FIELDS, applyJsonSchema, configJsonSchema, planJsonSchema, pullJsonSchema, renderSchemas, validateJsonSchema, type Plan } from '../src/index.js';

const schemasDir = new URL('../../../schemas/', import.meta.url);

describe('committed JSON Schemas', () => {
  for (const [name, text] of Object.entries(renderSchemas())) {
    it(`schemas/${name} is what the TypeBox source renders`, () => {
      const committed = readFileSync(new URL(name, schemasDir), 'utf8');
      expect(committed, `schemas/${name} is stale: run \`pnpm --filter @monsync/schema generate\``).toBe(text);
    });
  }

  it('are JSON Schema 2020-12 documents that ajv compiles in strict mode', () => {
    for (const doc of [configJsonSchema(), planJsonSchema(), validateJsonSchema(), applyJsonSchema(), pullJsonSchema()]) {
      expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      const ajv = new Ajv2020({ strict: true, strictTypes: false, allowUnionTypes: true });
      ajv.addFormat('email', /@/);
      expect(() => ajv.compile(doc)).not.toThrow();
    }
  });

  it('define one $defs entry per resource kind, with descriptions from the spec', () => {
    const defs = configJsonSchema().$defs as Record<string, { description?: string }>;
    for (const kind of ['Monitor', 'MonitorGroup', 'VaultSection', 'VaultItem', 'Sla', 'SlaExclusionPeriod', 'ScheduledReport', 'AlertDefinition']) {
      expect(defs[kind]?.description, kind).toMatch(/\w/);
    }
    const sla = defs.Sla as { properties: Record<string, { description?: string }> };
    expect(sla.properties.UptimeErrorThreshold?.description).toContain('below it an error shows in the SLA overview');
  });

  it('know no API field the published definition does not list: every PascalCase field of a published object is in PUBLISHED_FIELDS (or refused)', () => {
    const defs = configJsonSchema().$defs as Record<string, { properties?: Record<string, { not?: unknown }> }>;
    const invented: string[] = [];
    for (const [object, fields] of Object.entries(PUBLISHED_FIELDS)) {
      const properties = defs[object]?.properties;
      expect(properties, object).toBeDefined();
      for (const [field, schema] of Object.entries(properties ?? {})) {
        if (/^[A-Z]/.test(field) && schema.not === undefined && !(fields as readonly string[]).includes(field)) invented.push(`${object}.${field}`);
      }
    }
    expect(invented).toEqual([]);
  });

  it('carry the published enumerations, closed (a value the service added later passes through allowUnknown in monsync.yaml)', () => {
    const defs = configJsonSchema().$defs as Record<string, { enum?: unknown[]; anyOf?: unknown[] }>;
    expect(defs.ErrorConditionType?.enum).toHaveLength(21);
    expect(defs.FileType?.enum).toEqual(['PDFAttachment', 'PDFLink', 'ExcelAttachment', 'ExcelLink', 'Html']);
    expect(defs.SelectedPeriod?.enum).toContain('PreviousWeek');
    expect(defs.SelectedPeriod?.enum).toContain('Last7DaysExcl');
    expect(defs.SelectedPeriod?.enum).not.toContain('Previous Week');
    expect(defs.VaultItemType?.enum).toEqual(['CertificateArchive', 'Certificate', 'CredentialSet', 'File', 'OneTimePassword']);
    expect(defs.QuarterStartMonth?.enum).toEqual([1, 2, 3]);
    for (const name of ['UserAgent', 'Effect', 'FileType', 'ScheduleType', 'ScheduleMode', 'WeekDay', 'CultureName', 'SmsProvider', 'AlertType', 'ErrorConditionLevel', 'MatchType']) {
      expect(defs[name]?.enum, name).toBeDefined();
    }
    expect(defs.MonitorMode?.enum).toEqual(['Development', 'Staging', 'Production']);
    expect(defs.MonitorMode?.anyOf).toBeUndefined();
    expect(defs.MonitorType?.enum).toContain('Https');
    expect(defs.MonitorType?.enum).toContain('PostmanApi');
    expect(defs.MonitorType?.anyOf).toBeUndefined();
    const monitor = (defs.Monitor as { properties: Record<string, { enum?: unknown[] }> }).properties;
    expect(monitor.HttpMethod?.enum).toEqual(['Get', 'Post']);
    expect(monitor.BrowserType?.enum).toEqual(['Chrome', 'Edge']);
    const sla = defs.Sla as { properties: Record<string, unknown> };
    expect(Object.keys(sla.properties)).toContain('OperatorReponseTimeThreshold');
    expect(Object.keys(sla.properties)).not.toContain('OperatorResponseTimeThreshold');
  });

  it('validate a plan document typed with the exported Plan type', () => {
    const plan: Plan = {
      formatVersion: 1,
      configDigest: 'a'.repeat(64),
      liveDigest: 'b'.repeat(64),
      summary: { create: 1, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 },
      safe: true,
      violations: [],
      steps: [
        {
          id: 'vaultItem:Web/shop-login',
          action: 'create',
          kind: 'vaultItem',
          key: 'Web/shop-login',
          changes: [{ op: 'add', path: '/Password', before: '(sensitive)', after: '(sensitive)', sensitive: true }],
          dependsOn: ['vaultSection:Web'],
          source: { file: 'monitors/shop.yaml', line: 20, column: 11 },
          desired: { Name: 'shop-login', Password: { sensitive: true, fingerprint: 'c'.repeat(64) } },
        },
      ],
      unmanaged: [],
      warnings: [],
    };
    const ajv = new Ajv2020({ strict: true, strictTypes: false, allowUnionTypes: true });
    const validate = ajv.compile(planJsonSchema());
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...plan, formatVersion: 2 })).toBe(false);
    expect(validate({ ...plan, steps: [{ ...plan.steps[0], action: 'rename' }] })).toBe(false);
  });
});
