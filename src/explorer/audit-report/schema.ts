import { Type } from "@sinclair/typebox";

/** GET /smart-contracts/{h}/audit-reports (SmartContractView "audit_reports.json"). */
export const AuditReportsSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      audit_company_name: Type.String(),
      audit_report_url: Type.String(),
      audit_publish_date: Type.String(),
    }),
  ),
  next_page_params: Type.Null(),
});

export const MessageSchema = Type.Object({ message: Type.String() });
